// Unmounts what each test rendered (Testing Library only does this itself with vitest globals).
import { cleanup } from "@testing-library/react";
import { afterEach } from "vitest";

afterEach(() => cleanup());
