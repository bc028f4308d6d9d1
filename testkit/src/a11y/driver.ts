//! Entry point of the driver bundle: the functions `web/src/resolver.js` calls. Bundled by
//! `npm run build:a11y` (see `build.ts`) into `web/src/a11y.generated.js`, which the Rust
//! driver includes ahead of the resolver, so Cargo builds without Node.
export { accName, childNodesComposed, hiddenFromA11y, inputType, norm, parentComposed, rendered, roleOf, styleOf } from "./index";
