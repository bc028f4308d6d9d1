//! `<A3STestBoundary>`: declares a component boundary with a source hint. A single host-element
//! child gets a ref (no DOM change at all); anything else is wrapped in an
//! `<a3s-test-boundary style="display:contents">` element that snapshots walk through. No
//! attribute is ever written onto application elements.
import {
  Children,
  cloneElement,
  createElement,
  isValidElement,
  useCallback,
  useContext,
  useEffect,
  useRef,
  version,
  type ReactElement,
  type ReactNode,
  type Ref,
} from "react";
import { BOUNDARY_WRAPPER_TAG, getPageContextBridge, type BoundaryRegistration, type Facts, type SourceSpan } from "@a3s-lab/testkit";
import { TestKitContext } from "./context";

/** Props of {@link A3STestBoundary}. */
export interface A3STestBoundaryProps {
  /** Unique id of this boundary instance on the page. */
  id: string;
  /** Component name shown in snapshots. */
  name: string;
  /** Source hint (1-based line/column). @default undefined */
  source?: SourceSpan;
  /** Whether the component is ready. @default true */
  ready?: boolean;
  /** Component facts (sanitized). @default {} */
  facts?: Facts;
  /** The component's rendered output. */
  children?: ReactNode;
}

const REACT_MAJOR = Number(version.split(".")[0]);

function childRefOf(child: ReactElement): Ref<Element> | undefined {
  // React 19 moved `ref` into props; reading element.ref there warns.
  if (REACT_MAJOR >= 19) return (child.props as { ref?: Ref<Element> }).ref;
  return (child as unknown as { ref?: Ref<Element> }).ref ?? undefined;
}

function assignRef(ref: Ref<Element> | undefined, value: Element | null): void {
  if (typeof ref === "function") ref(value);
  else if (ref !== null && ref !== undefined) (ref as { current: Element | null }).current = value;
}

/** Registers its subtree as a component boundary while mounted. */
export function A3STestBoundary(props: A3STestBoundaryProps): ReactNode {
  const registrar = useContext(TestKitContext);
  const elementRef = useRef<Element | null>(null);
  const wrapperRef = useRef<Element | null>(null);
  const latest = useRef({ ready: props.ready, facts: props.facts });
  latest.current = { ready: props.ready, facts: props.facts };
  const { id, name, source } = props;
  const sourceKey = source === undefined ? "" : JSON.stringify(source);

  useEffect(() => {
    const registration: BoundaryRegistration = {
      id,
      name,
      ...(source !== undefined ? { source } : {}),
      roots: () => {
        const el = elementRef.current;
        if (el !== null && el.isConnected) return [el];
        const wrapper = wrapperRef.current;
        // The wrapper itself is the root: snapshots walk through it and box its children.
        return wrapper !== null && wrapper.isConnected ? [wrapper] : [];
      },
      ready: () => latest.current.ready !== false,
      facts: () => latest.current.facts ?? {},
    };
    if (registrar !== null) return registrar.add(registration);
    const bridge = getPageContextBridge();
    if (bridge === null) return undefined;
    try {
      return bridge.registerBoundary(registration);
    } catch {
      return undefined;
    }
    // `sourceKey` stands for `source`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [registrar, id, name, sourceKey]);

  const children = props.children;
  const only = Children.count(children) === 1 && isValidElement(children) && typeof children.type === "string" ? (children as ReactElement) : null;
  const childRef = only !== null ? childRefOf(only) : undefined;
  const mergedRef = useCallback(
    (el: Element | null) => {
      elementRef.current = el;
      assignRef(childRef, el);
    },
    [childRef],
  );
  if (only !== null) return cloneElement(only as ReactElement<{ ref?: Ref<Element> }>, { ref: mergedRef });
  return createElement(BOUNDARY_WRAPPER_TAG, { ref: wrapperRef, style: { display: "contents" } }, children);
}
