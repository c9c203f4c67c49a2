// A tiny DOM builder for the booking pages: elements from tag, attributes and children, so that every
// text is a text node (never parsed as HTML) and the pages need no framework (their script stays small).
export type Child = Node | string | number | null | undefined | false | Child[];
type Handler = (event: Event) => void;
export type Props = Record<string, string | number | boolean | Handler | null | undefined>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props?: Props | null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.slice(2).toLowerCase(), value);
    else if (value === true) element.setAttribute(name, '');
    else element.setAttribute(name, String(value));
  }
  append(element, children);
  return element;
}

export function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else parent.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces the element's content. */
export function replace(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

/** Says `text` to screen readers through the page's polite live region. */
export function announce(text: string): void {
  const region = document.getElementById('announcer');
  if (!region) return;
  region.textContent = '';
  // A fresh text after a tick is announced even when it repeats the last one.
  window.setTimeout(() => (region.textContent = text), 50);
}

let uid = 0;
export const nextId = (prefix: string) => `${prefix}-${++uid}`;

/** A labelled form field with its hint and its error, wired with aria-describedby and aria-invalid. */
export interface Field {
  wrapper: HTMLElement;
  setError(message: string | undefined): void;
}

export function field(label: string, control: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement, hint?: string): Field {
  const id = control.id || nextId('field');
  control.id = id;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const error = h('p', { id: errorId, class: 'field-error' });
  control.setAttribute('aria-describedby', hint ? `${hintId} ${errorId}` : errorId);
  const wrapper = h(
    'div',
    { class: 'field' },
    h('label', { for: id }, label),
    hint ? h('p', { id: hintId, class: 'hint' }, hint) : null,
    control,
    error,
  );
  return {
    wrapper,
    setError(message) {
      error.textContent = message ?? '';
      if (message) control.setAttribute('aria-invalid', 'true');
      else control.removeAttribute('aria-invalid');
    },
  };
}
