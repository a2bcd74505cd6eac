import { h } from './dom';

/** Above a page fed by the built-in sandbox exchange: its figures are simulated. Hidden otherwise. */
export function sandboxBanner(): { readonly element: HTMLElement; show(sandbox: boolean): void } {
  const element = h(
    'p',
    { class: 'sandbox-banner', role: 'alert', hidden: '' },
    'Sandbox: every figure here is simulated by the built-in sandbox exchange, for a trial. No exchange is connected.',
  );
  return { element, show: (sandbox) => (element.hidden = !sandbox) };
}
