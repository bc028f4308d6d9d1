/**
 * Whether a send came from a person: the one check that marks a finding or an action `human`.
 *
 * The Review Overlay hands the queue the event of the click or key press that sent. The mark is
 * `human` only for a genuine `Event` the browser itself created (`isTrusted`, read through the
 * getter the browser installs, so an object that merely claims it fails the brand check), of a
 * pointer or key type, that the browser is dispatching right now to the Review Overlay's host.
 * A page script cannot create such an event, and a trusted event it kept from earlier is no
 * longer being dispatched. Once accepted, the same event may be shown again for a few seconds
 * (the overlay sends a refused batch again item by item).
 *
 * Limits, stated where the check lives: the page and the overlay share one JavaScript realm, so
 * code that runs before the Test Kit, or a page listener that acts while a person clicks in the
 * overlay, is not kept out; `human` means a person's gesture in the overlay sent it, not that no
 * other code ran.
 */
import { OVERLAY_HOST_TAG } from "../snapshot/walk";

/** Event types a person's send can arrive by. */
const GESTURE_TYPES: ReadonlySet<string> = new Set(["click", "keydown", "keyup", "pointerdown", "pointerup", "mousedown", "mouseup", "touchend"]);
/** How long an accepted gesture may be shown again, in ms. */
const GRANT_MS = 5_000;

/** Decides whether a value is a person's gesture in the Review Overlay. */
export type GestureCheck = (gesture: unknown) => boolean;

type Getter = (this: unknown) => unknown;

function getter(target: unknown, name: string): Getter | undefined {
  if ((typeof target !== "object" && typeof target !== "function") || target === null) return undefined;
  const d = Object.getOwnPropertyDescriptor(target, name);
  return typeof d?.get === "function" ? (d.get as Getter) : undefined;
}

/** The check for `win`, reading the browser's own `Event` accessors once, at install. */
export function gestureCheck(win: Window): GestureCheck {
  const EventCtor = (win as Window & { Event?: typeof Event }).Event;
  if (typeof EventCtor !== "function") return () => false;
  const proto = EventCtor.prototype as Event | undefined;
  if (typeof proto !== "object" || proto === null) return () => false;
  let isTrusted: Getter | undefined;
  try {
    // `isTrusted` is an own accessor of every event; its getter checks that `this` is one.
    isTrusted = getter(new EventCtor("a3s-test-probe"), "isTrusted");
  } catch {
    isTrusted = undefined;
  }
  const phase = getter(proto, "eventPhase");
  const type = getter(proto, "type");
  const stamp = getter(proto, "timeStamp");
  const path = proto.composedPath as ((this: unknown) => EventTarget[]) | undefined;
  const ElementCtor = (win as Window & { Element?: typeof Element }).Element;
  if (isTrusted === undefined || phase === undefined || type === undefined || stamp === undefined || typeof path !== "function" || typeof ElementCtor !== "function") {
    return () => false;
  }
  const granted = new WeakSet<object>();
  return (gesture) => {
    if (typeof gesture !== "object" || gesture === null) return false;
    try {
      if (isTrusted.call(gesture) !== true) return false;
      if (!GESTURE_TYPES.has(String(type.call(gesture)))) return false;
      if (granted.has(gesture)) return win.performance.now() - Number(stamp.call(gesture)) < GRANT_MS;
      if (phase.call(gesture) === 0) return false;
      const onOverlay = path.call(gesture).some((n) => n instanceof ElementCtor && n.localName === OVERLAY_HOST_TAG);
      if (!onOverlay) return false;
      granted.add(gesture);
      return true;
    } catch {
      return false;
    }
  };
}
