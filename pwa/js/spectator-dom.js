// The spectator, audit and screen faces build with the one DOM builder (as `el`), and reveal
// a view whole once its data has loaded.

export { h as el } from "/js/dom.js";

/**
 * Show `root`'s children only once `loaded` has settled (until then, only `placeholder`):
 * the view appears whole instead of growing in steps, so nothing on the screen jumps.
 */
export function revealWhen(root, loaded, placeholder = null) {
  root.dataset.loading = "";
  if (placeholder) root.prepend(placeholder);
  const reveal = () => {
    placeholder?.remove();
    delete root.dataset.loading;
  };
  Promise.resolve(loaded).then(reveal, reveal);
}
