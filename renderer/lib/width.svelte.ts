/**
 * The width an element is given, followed as the window resizes, for charts drawn at their real size
 * (their text stays readable at 420 px). Where there is no ResizeObserver (a test DOM) it stays `initial`.
 */
export class ElementWidth {
  #width = $state(0);

  constructor(initial: number) {
    this.#width = initial;
  }

  get current(): number {
    return this.#width;
  }

  /** An attachment: `{@attach width.follow}`. */
  follow = (node: HTMLElement): (() => void) | undefined => {
    // Measured at once as well: a chart drawn at `initial` until the observer's first callback made a
    // 420 px window scroll sideways for that moment.
    if (node.clientWidth > 0) this.#width = node.clientWidth;
    if (typeof ResizeObserver === 'undefined') return undefined;
    const ro = new ResizeObserver(() => {
      if (node.clientWidth > 0) this.#width = node.clientWidth;
    });
    ro.observe(node);
    return () => ro.disconnect();
  };
}
