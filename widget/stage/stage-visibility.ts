/**
 * Tells whether a container is worth rendering: on screen (IntersectionObserver) and in a visible
 * tab (`visibilitychange`). Lifecycle like a Lit ReactiveController: `hostConnected()` starts
 * watching, `hostDisconnected()` removes every observer and listener.
 */
export class StageVisibility {
  readonly #container: HTMLElement;
  readonly #onChange: (state: { onScreen: boolean; tabVisible: boolean }) => void;
  #observer: IntersectionObserver | undefined;
  #onScreen = true;

  constructor(container: HTMLElement, onChange: (state: { onScreen: boolean; tabVisible: boolean }) => void) {
    this.#container = container;
    this.#onChange = onChange;
  }

  hostConnected(): void {
    if (this.#observer) return;
    if (typeof IntersectionObserver === 'function') {
      this.#observer = new IntersectionObserver((entries) => {
        const last = entries[entries.length - 1];
        if (!last) return;
        this.#onScreen = last.isIntersecting;
        this.#emit();
      });
      this.#observer.observe(this.#container);
    }
    document.addEventListener('visibilitychange', this.#onVisibility);
    this.#emit();
  }

  hostDisconnected(): void {
    this.#observer?.disconnect();
    this.#observer = undefined;
    document.removeEventListener('visibilitychange', this.#onVisibility);
  }

  readonly #onVisibility = (): void => this.#emit();

  #emit(): void {
    this.#onChange({ onScreen: this.#onScreen, tabVisible: document.visibilityState !== 'hidden' });
  }
}
