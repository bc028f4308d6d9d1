/**
 * The Layout Mode form's style sheet, placed inside the editor's own root. Every selector starts
 * at `.a3s-layout`, so even outside a shadow root it can only match the editor's elements, never
 * host nodes. Focus is always visible.
 * @module
 */

/** CSS text of the form (the preview layer styles its own elements inline). */
export const LAYOUT_CSS = `
.a3s-layout { font: 13px/1.4 system-ui, sans-serif; color: #111827; display: grid; gap: 10px; }
.a3s-layout [hidden] { display: none !important; }
.a3s-layout-title { font-size: 14px; margin: 0; }
.a3s-layout fieldset { border: 1px solid #d1d5db; border-radius: 6px; margin: 0; padding: 6px 10px; display: flex; flex-wrap: wrap; gap: 4px 14px; }
.a3s-layout legend { padding: 0 4px; font-weight: 600; }
.a3s-layout-field { display: grid; gap: 4px; position: relative; }
.a3s-layout-field > label { font-weight: 600; }
.a3s-layout input[type="text"] { font: inherit; padding: 5px 8px; border: 1px solid #9ca3af; border-radius: 4px; }
.a3s-layout input[aria-invalid="true"] { border-color: #b91c1c; }
.a3s-layout button { font: inherit; padding: 5px 10px; border: 1px solid #2563eb; border-radius: 4px; background: #eff6ff; color: #1e3a8a; cursor: pointer; justify-self: start; }
.a3s-layout button[aria-disabled="true"] { opacity: 0.6; cursor: progress; }
.a3s-layout :focus-visible { outline: 2px solid #2563eb; outline-offset: 2px; }
.a3s-layout-section { display: grid; gap: 4px; }
.a3s-layout-listbox { list-style: none; margin: 0; padding: 2px; max-height: 220px; overflow: auto; border: 1px solid #9ca3af; border-radius: 4px; background: #fff; }
.a3s-layout-option { padding: 4px 8px; border-radius: 3px; cursor: pointer; }
.a3s-layout-option[aria-selected="true"] { background: #2563eb; color: #fff; outline: 2px solid #1e3a8a; }
.a3s-layout-option-aside { color: #6b7280; font-size: 12px; }
.a3s-layout-option[aria-selected="true"] .a3s-layout-option-aside { color: #dbeafe; }
.a3s-layout-hint, .a3s-layout-value { margin: 0; color: #4b5563; font-size: 12px; }
.a3s-layout-error { margin: 0; color: #b91c1c; font-size: 12px; }
.a3s-layout-error:empty, .a3s-layout-value:empty { display: none; }
`;
