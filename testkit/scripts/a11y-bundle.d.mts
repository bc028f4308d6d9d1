/** Absolute path of the committed driver bundle. */
export declare const GENERATED_PATH: string;
/** Builds the driver bundle of `src/a11y` in memory. */
export declare function bundleA11y(): Promise<string>;
