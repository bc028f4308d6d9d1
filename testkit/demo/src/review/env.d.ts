// `import.meta.env` as the documentation's sample uses it (Vite's client types); the demo build
// defines `import.meta.env.DEV` as true.
/// <reference types="vite/client" />
