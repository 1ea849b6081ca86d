// The judge face builds its DOM with the one DOM builder of every face.

export { h, morph } from "/js/dom.js";
