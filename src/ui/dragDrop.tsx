/**
 * The boards' drag and drop (both worlds): a palette token or a placed workload dragged onto
 * a drop target — an execution place, the serving device — with the mouse, a pen, a finger
 * (after a short press, so that a swipe still scrolls) or the keyboard (Space or Enter picks
 * up, the arrows jump from target to target, Space, Enter or Tab drops, Escape cancels),
 * announced to screen readers in a live region.
 *
 * Written for the boards rather than taken from a general drag-and-drop library, because they
 * need only this and the library was a tenth of the page's first load (ARCHITECTURE §7a′). The
 * hooks keep the shape of the usual ones (`useDraggable`, `useDroppable`, a provider with
 * `onDrop`); the geometry is in `dragGeometry.ts`.
 */
import { createContext, useCallback, useContext, useEffect, useId, useMemo, useRef, useState, type CSSProperties, type KeyboardEvent as ReactKeyboardEvent, type PointerEvent as ReactPointerEvent, type ReactNode } from 'react';
import { keyboardJump, targetUnder, type Rect, type TargetRect } from './dragGeometry';

/** A dragged item or a drop target: its id and what the drop handler gets. */
export interface DragItem<D = unknown> {
  readonly id: string;
  readonly data: D;
}

/** The sentences the live region speaks (the item's and the target's data are the caller's). */
export interface DragAnnouncements {
  start(item: DragItem): string;
  over(target: DragItem | null): string;
  drop(item: DragItem, target: DragItem | null): string;
  cancel(item: DragItem): string;
}

/** A mouse must move this far (px) before a press becomes a drag, so that a click stays a click. */
export const POINTER_DISTANCE_PX = 4;
/** A finger must rest this long (ms) before it drags; moving farther than `TOUCH_TOLERANCE_PX` first lets the page scroll instead. */
export const TOUCH_DELAY_MS = 120;
export const TOUCH_TOLERANCE_PX = 6;

interface DragState {
  readonly item: DragItem;
  readonly delta: { readonly x: number; readonly y: number };
  readonly over: string | null;
}

interface DragContextValue {
  readonly drag: DragState | null;
  readonly instructionsId: string;
  registerTarget(id: string, node: HTMLElement | null, data: { current: unknown }): void;
  startPointer(event: ReactPointerEvent<HTMLElement>, item: DragItem): void;
  startKeyboard(event: ReactKeyboardEvent<HTMLElement>, item: DragItem): void;
}

const DragContext = createContext<DragContextValue | null>(null);

function useDragContext(): DragContextValue {
  const context = useContext(DragContext);
  if (context === null) throw new Error('a draggable or drop target outside <DragDropArea>');
  return context;
}

/** The drag under way: the node that moves, how, and the listeners to remove when it ends. */
interface Session {
  item: DragItem;
  active: boolean;
  delta: { x: number; y: number };
  pointer: { x: number; y: number } | null;
  over: string | null;
  /** The node's box and the page's scroll when the press began. */
  base: Rect;
  scroll: { x: number; y: number };
  cleanup: (() => void)[];
}

const rectOf = (node: Element): Rect => {
  const r = node.getBoundingClientRect();
  return { left: r.left, top: r.top, width: r.width, height: r.height };
};

const newSession = (item: DragItem, node: HTMLElement): Session => ({ item, active: false, delta: { x: 0, y: 0 }, pointer: null, over: null, base: rectOf(node), scroll: { x: window.scrollX, y: window.scrollY }, cleanup: [] });

/** Stops the click that follows a pointer drag's release on the item itself, if one comes at once. */
function swallowNextClick(): void {
  const swallow = (e: MouseEvent) => {
    e.preventDefault();
    e.stopPropagation();
  };
  window.addEventListener('click', swallow, { capture: true, once: true });
  window.setTimeout(() => window.removeEventListener('click', swallow, { capture: true }), 0);
}

/** What a drag-and-drop area is told: the drop handler, its sentences and its keyboard targets. */
export interface DragDropAreaProps {
  /** The item and the target it was dropped on (null: dropped outside every target). */
  readonly onDrop: (item: DragItem, target: DragItem | null) => void;
  readonly announcements: DragAnnouncements;
  /** Keyboard moves jump between the drop targets whose id starts with this (`ep-`: the execution places). */
  readonly keyboardTargets: string;
  /** Where the arrow keys move a picked-up item, for the instructions read with each draggable ("between execution places"). */
  readonly keyboardWhere: string;
  readonly children: ReactNode;
}

/** The area inside which items can be dragged onto targets. */
export function DragDropArea({ onDrop, announcements, keyboardTargets, keyboardWhere, children }: DragDropAreaProps) {
  const [drag, setDrag] = useState<DragState | null>(null);
  const [message, setMessage] = useState('');
  const targets = useRef(new Map<string, { node: HTMLElement; data: { current: unknown } }>());
  const session = useRef<Session | null>(null);
  const latest = useRef({ onDrop, announcements });
  useEffect(() => {
    latest.current = { onDrop, announcements };
  });
  const instructionsId = useId();

  const targetRects = (): TargetRect[] => [...targets.current].map(([id, t]) => ({ id, rect: rectOf(t.node) }));
  const targetItem = (id: string | null): DragItem | null => {
    const t = id === null ? undefined : targets.current.get(id);
    return t === undefined || id === null ? null : { id, data: t.data.current };
  };
  /** The item's rectangle where it is drawn now: its box when the drag started, moved by the drag and by any scrolling since. */
  const itemRect = (s: Session): Rect => ({ ...s.base, left: s.base.left + s.delta.x - (window.scrollX - s.scroll.x), top: s.base.top + s.delta.y - (window.scrollY - s.scroll.y) });
  const publish = (s: Session) => {
    const over = targetUnder(targetRects(), itemRect(s), s.pointer);
    if (over !== s.over) {
      s.over = over;
      setMessage(latest.current.announcements.over(targetItem(over)));
    }
    setDrag({ item: s.item, delta: { ...s.delta }, over: s.over });
  };
  const end = (drop: boolean) => {
    const s = session.current;
    if (s === null) return;
    session.current = null;
    for (const off of s.cleanup) off();
    if (!s.active) return;
    // The item moved under the pointer: the release over it would also click it (a second drop).
    if (s.pointer !== null) swallowNextClick();
    setDrag(null);
    if (drop) {
      const target = targetItem(s.over);
      setMessage(latest.current.announcements.drop(s.item, target));
      latest.current.onDrop(s.item, target);
    } else {
      setMessage(latest.current.announcements.cancel(s.item));
    }
  };
  const activate = (s: Session) => {
    s.active = true;
    window.getSelection()?.removeAllRanges();
    setMessage(latest.current.announcements.start(s.item));
    publish(s);
  };
  const listen = <K extends keyof WindowEventMap>(s: Session, type: K, handler: (e: WindowEventMap[K]) => void, options?: AddEventListenerOptions) => {
    window.addEventListener(type, handler, options);
    s.cleanup.push(() => window.removeEventListener(type, handler, options));
  };

  const startPointer = (event: ReactPointerEvent<HTMLElement>, item: DragItem) => {
    if (session.current !== null || !event.isPrimary || (event.pointerType === 'mouse' && event.button !== 0)) return;
    const s = newSession(item, event.currentTarget);
    session.current = s;
    const origin = { x: event.clientX, y: event.clientY };
    const touch = event.pointerType === 'touch';
    if (touch) {
      const timer = window.setTimeout(() => activate(s), TOUCH_DELAY_MS);
      s.cleanup.push(() => window.clearTimeout(timer));
    }
    listen(s, 'pointermove', (e) => {
      if (e.pointerId !== event.pointerId) return;
      const moved = Math.hypot(e.clientX - origin.x, e.clientY - origin.y);
      if (!s.active) {
        if (touch) {
          if (moved > TOUCH_TOLERANCE_PX) end(false);
          return;
        }
        if (moved < POINTER_DISTANCE_PX) return;
        activate(s);
      }
      e.preventDefault();
      s.delta = { x: e.clientX - origin.x, y: e.clientY - origin.y };
      s.pointer = { x: e.clientX, y: e.clientY };
      publish(s);
    });
    listen(s, 'pointerup', (e) => {
      if (e.pointerId === event.pointerId) end(true);
    });
    listen(s, 'pointercancel', (e) => {
      if (e.pointerId === event.pointerId) end(false);
    });
    // No text selection or context menu while a press may become a drag.
    listen(s, 'selectstart', (e) => e.preventDefault());
    listen(s, 'contextmenu', (e) => (s.active ? e.preventDefault() : undefined));
    listen(s, 'keydown', (e) => {
      if (e.key === 'Escape') end(false);
    });
  };

  const startKeyboard = (event: ReactKeyboardEvent<HTMLElement>, item: DragItem) => {
    if (session.current !== null || (event.key !== ' ' && event.key !== 'Enter')) return;
    event.preventDefault();
    const s = newSession(item, event.currentTarget);
    session.current = s;
    // Capture phase: the drag's keys come before the lab's shortcuts (Space plays, arrows step),
    // and stop there — the Space that drops must not reach the item and pick it up again.
    const consume = (e: KeyboardEvent) => {
      e.preventDefault();
      e.stopPropagation();
    };
    listen(
      s,
      'keydown',
      (e) => {
        if (e.key === 'Escape') {
          consume(e);
          end(false);
        } else if (e.key === ' ' || e.key === 'Enter' || e.key === 'Tab') {
          consume(e);
          end(true);
        } else {
          const now = itemRect(s);
          const to = keyboardJump(e.key, targetRects(), now, keyboardTargets);
          if (to === null) return;
          consume(e);
          s.delta = { x: s.delta.x + to.x - now.left, y: s.delta.y + to.y - now.top };
          publish(s);
        }
      },
      { capture: true },
    );
    listen(s, 'blur', () => end(false));
    activate(s);
  };

  // A drag under way when the area goes away ends without a drop.
  useEffect(() => () => end(false), []); // eslint-disable-line react-hooks/exhaustive-deps

  const registerTarget = useCallback((id: string, node: HTMLElement | null, data: { current: unknown }) => {
    if (node === null) targets.current.delete(id);
    else targets.current.set(id, { node, data });
  }, []);
  const value: DragContextValue = { drag, instructionsId, registerTarget, startPointer, startKeyboard };
  return (
    <DragContext.Provider value={value}>
      {children}
      <div id={instructionsId} style={{ display: 'none' }}>
        To pick up a draggable item, press space or enter. While dragging, use the arrow keys to move it {keyboardWhere}. Press space or enter again to drop it, or escape to cancel.
      </div>
      <div className="visually-hidden" role="status" aria-live="assertive" aria-atomic="true">
        {message}
      </div>
    </DragContext.Provider>
  );
}

/** A drop target: put `setNodeRef` on its element; `isOver` while a dragged item is over it. */
export function useDroppable<D>({ id, data }: { readonly id: string; readonly data?: D }): { setNodeRef: (node: HTMLElement | null) => void; isOver: boolean } {
  const { drag, registerTarget } = useDragContext();
  const dataRef = useRef<unknown>(data);
  useEffect(() => {
    dataRef.current = data;
  });
  const setNodeRef = useCallback((node: HTMLElement | null) => registerTarget(id, node, dataRef), [id, registerTarget]);
  return { setNodeRef, isOver: drag?.over === id };
}

/**
 * A draggable item: spread `attributes` and `listeners` on its (focusable) element and apply
 * `style`; `isDragging` while it moves.
 */
export function useDraggable<D>({ id, data }: { readonly id: string; readonly data: D }) {
  const { drag, instructionsId, startPointer, startKeyboard } = useDragContext();
  const dataRef = useRef(data);
  useEffect(() => {
    dataRef.current = data;
  });
  const isDragging = drag?.item.id === id;
  const listeners = useMemo(
    () => ({
      onPointerDown: (e: ReactPointerEvent<HTMLElement>) => startPointer(e, { id, data: dataRef.current }),
      onKeyDown: (e: ReactKeyboardEvent<HTMLElement>) => startKeyboard(e, { id, data: dataRef.current }),
    }),
    [id, startPointer, startKeyboard],
  );
  const attributes = { 'aria-roledescription': 'draggable', 'aria-describedby': instructionsId, 'aria-pressed': isDragging ? true : undefined } as const;
  const style: CSSProperties | undefined = isDragging ? { transform: `translate3d(${drag.delta.x}px, ${drag.delta.y}px, 0)` } : undefined;
  return { attributes, listeners, style, isDragging };
}
