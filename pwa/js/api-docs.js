// The API reference at /schema: reads the OpenAPI document and lists every operation —
// method, path, summary, parameters, request body, answers — with a filter. No CDN, no
// inline script: it works on a venue network without internet, under the strict CSP.

import { h } from "/js/dom.js";

const METHODS = ["get", "post", "put", "patch", "delete"];
const root = document.getElementById("api");

/** The schema a $ref names, else the schema itself. */
function resolve(spec, schema) {
  if (!schema?.$ref) return schema || {};
  return spec.components?.schemas?.[schema.$ref.split("/").pop()] || {};
}

/** A short type label: a named schema, an array of one, or the JSON type. */
function typeOf(spec, schema) {
  if (!schema) return "";
  if (schema.$ref) return schema.$ref.split("/").pop();
  if (schema.type === "array") return `array of ${typeOf(spec, schema.items)}`;
  if (schema.oneOf || schema.anyOf) return (schema.oneOf || schema.anyOf).map((s) => typeOf(spec, s)).join(" | ");
  return schema.type || "";
}

function fields(spec, schema) {
  const body = resolve(spec, schema);
  const required = new Set(body.required || []);
  const rows = Object.entries(body.properties || {}).map(([name, prop]) =>
    h("li", {}, h("code", {}, name), ` ${typeOf(spec, prop)}`, required.has(name) ? " (required)" : ""));
  return rows.length ? h("ul", { class: "api-fields" }, rows) : null;
}

function parameters(op) {
  const list = op.parameters || [];
  if (!list.length) return null;
  return h("ul", { class: "api-params" }, list.map((p) =>
    h("li", {}, h("code", {}, p.name), ` in ${p.in}`, p.required ? " (required)" : "",
      p.description ? ` — ${p.description}` : "")));
}

function requestBody(spec, op) {
  const media = op.requestBody?.content?.["application/json"];
  if (!media) return null;
  return h("div", { class: "api-body" }, h("h4", {}, `Body: ${typeOf(spec, media.schema)}`), fields(spec, media.schema));
}

function answers(op) {
  const codes = Object.entries(op.responses || {});
  return h("ul", { class: "api-answers" }, codes.map(([code, r]) =>
    h("li", {}, h("code", {}, code), ` ${r.description || ""}`)));
}

function operation(spec, path, method, op) {
  return h("section", { class: "api-op", "data-text": `${method} ${path} ${op.summary || ""}`.toLowerCase() },
    h("h3", {}, h("span", { class: `api-method api-${method}` }, method.toUpperCase()), " ", h("code", {}, path)),
    op.summary ? h("p", {}, op.summary) : null,
    op.description ? h("p", { class: "api-desc" }, op.description) : null,
    parameters(op), requestBody(spec, op), answers(op));
}

function render(spec) {
  const ops = [];
  for (const [path, item] of Object.entries(spec.paths || {}).sort()) {
    for (const method of METHODS) if (item[method]) ops.push(operation(spec, path, method, item[method]));
  }
  document.getElementById("api-paths").replaceChildren(...ops);
  document.getElementById("api-status").textContent = `${ops.length} operations, version ${spec.info?.version || ""}`;
}

function filter(text) {
  const needle = text.trim().toLowerCase();
  for (const op of document.querySelectorAll(".api-op")) op.hidden = !!needle && !op.dataset.text.includes(needle);
}

document.getElementById("api-find").addEventListener("input", (e) => filter(e.target.value));
fetch(root.dataset.spec).then((r) => r.json()).then(render).catch(() => {
  document.getElementById("api-status").textContent = "The OpenAPI document could not be loaded.";
});
