//! `@a3s-lab/testkit/react`: the provider that installs the runtime and the component boundary.
export { A3STestKit, type A3STestKitProps } from "./A3STestKit";
export { A3STestBoundary, type A3STestBoundaryProps } from "./A3STestBoundary";
export { A3SReviewOverlay, type A3SReviewOverlayProps } from "./A3SReviewOverlay";
