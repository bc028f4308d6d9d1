//! The registrar that connects `A3STestBoundary` to the runtime `A3STestKit` installs. Children's
//! effects run before their parent's, so boundaries register here first and are replayed onto
//! the bridge once it exists (and dropped from it when it goes away).
import { createContext } from "react";
import type { BoundaryRegistration, PageContextBridge, Unregister } from "@a3s-lab/testkit";
import { devWarn } from "./warn";

interface Entry {
  registration: BoundaryRegistration;
  unregister: Unregister | undefined;
}

/** Buffers boundary registrations until a bridge is attached. */
export class BoundaryRegistrar {
  private bridge: PageContextBridge | null = null;
  private readonly entries = new Set<Entry>();

  private register(entry: Entry): void {
    if (this.bridge === null) return;
    try {
      entry.unregister = this.bridge.registerBoundary(entry.registration);
    } catch (e) {
      devWarn(`A3STestBoundary "${entry.registration.id}" was not registered: ${e instanceof Error ? e.message : String(e)}. Give every boundary instance a unique id.`);
    }
  }

  /** Adds a registration; returns its removal function. */
  add(registration: BoundaryRegistration): () => void {
    const entry: Entry = { registration, unregister: undefined };
    this.entries.add(entry);
    this.register(entry);
    return () => {
      entry.unregister?.();
      this.entries.delete(entry);
    };
  }

  /** Attaches a bridge and replays every registration onto it. */
  attach(bridge: PageContextBridge): void {
    this.detach();
    this.bridge = bridge;
    for (const entry of this.entries) this.register(entry);
  }

  /** Removes every registration from the attached bridge. */
  detach(): void {
    for (const entry of this.entries) {
      try {
        entry.unregister?.();
      } catch {
        // A disposed bridge has nothing left to unregister.
      }
      entry.unregister = undefined;
    }
    this.bridge = null;
  }
}

/** Context carrying the registrar of the nearest `A3STestKit`. */
export const TestKitContext = createContext<BoundaryRegistrar | null>(null);
