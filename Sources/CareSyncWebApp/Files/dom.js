// DOM helpers: every value becomes text or an attribute, never markup.

/** An element with attributes (`class`, `text`, `dataset`, `on<event>`, others as attributes) and children. */
export function el(tag, props = {}, ...children) {
  return build(document.createElement(tag), props, children);
}

const SVG = 'http://www.w3.org/2000/svg';

/** An SVG element, as `el`. */
export function svg(tag, props = {}, ...children) {
  return build(document.createElementNS(SVG, tag), props, children);
}

function build(node, props, children) {
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'text') node.textContent = String(value);
    else if (key === 'class') node.setAttribute('class', value);
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key.startsWith('on') && typeof value === 'function') node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

/** Replaces the children of `node`. */
export function fill(node, ...children) {
  node.replaceChildren();
  return build(node, {}, children);
}

/** The element with this id. */
export function byId(id) { return document.getElementById(id); }
