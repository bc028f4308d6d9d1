//! The one role and accessible-name computation of A3S Test (see `name.ts`). The driver bundles
//! `driver.ts` from these files into `web/src/a11y.generated.js` (`npm run build:a11y`).
export { childNodesComposed, hiddenFromA11y, inputType, norm, parentComposed, rendered, styleOf } from "./dom";
export { implicitRole, roleOf } from "./role";
export { accName, contentName, controlValue, LABEL_SOURCES, LABELLED_TAGS, NAME_FROM_CONTENT, type AccessibleName, type NameOptions, type NameSource } from "./name";
