/* The result graph as SVG, drawn here (no library, nothing fetched): the returned sections
   as boxes, one column per document in the order documents first rank, sections in document
   order; the edges among them, and those that brought expanded sections in, coloured by type. */
"use strict";

(function () {
  const SVG = "http://www.w3.org/2000/svg";
  // One colour per edge type of raag_assets.core.model.EdgeType (a test checks all are here).
  const COLORS = {
    references: "#1f5fbf",
    overrides: "#c62828",
    depends_on: "#e07000",
    supersedes: "#6d6d6d",
    amends: "#7b3fb5",
    defines: "#2e7d32",
    uses_term: "#00838f",
    precedes: "#8d5524",
    applies_to: "#9e9d24",
    effective_on: "#ad1457",
    applies_to_scope: "#5c6bc0",
    topically_related: "#9a9a9a",
  };
  const BOX_W = 160, BOX_H = 42, COL_GAP = 84, ROW_GAP = 22, PAD = 24, HEAD = 26;

  function el(name, attrs, parent) {
    const node = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
    if (parent) parent.appendChild(node);
    return node;
  }

  const keyOf = (ref) => ref.doc_id + "\u0000" + (ref.label == null ? "" : ref.label);
  const where = (ref) => ref.doc_id + (ref.label == null ? " (whole document)" : " § " + ref.label);

  // "2.10" after "2.9", "Title" first: compare label parts as numbers where they are numbers
  function labelOrder(a, b) {
    if (a == null) return -1;
    if (b == null) return 1;
    const pa = String(a).split(/[.\s]/), pb = String(b).split(/[.\s]/);
    for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
      const x = pa[i], y = pb[i];
      if (x === undefined) return -1;
      if (y === undefined) return 1;
      const nx = Number(x), ny = Number(y);
      const c = Number.isNaN(nx) || Number.isNaN(ny) ? x.localeCompare(y) : nx - ny;
      if (c !== 0) return Number.isNaN(nx) !== Number.isNaN(ny) ? (Number.isNaN(nx) ? -1 : 1) : c;
    }
    return 0;
  }

  /* The edges to draw: the result graph's, plus each expanded result's provenance edge where
     the graph lacks it; `brought` marks the edges that brought a section in. */
  function edgesOf(results, resultGraph) {
    const edges = new Map();
    for (const e of resultGraph || []) {
      if (!e.dst) continue;  // an edge to a date or a scope: not between sections
      edges.set(e.edge_id, Object.assign({ brought: [] }, e));
    }
    for (const r of results) {
      const p = r.provenance;
      if (!p || !p.from) continue;
      const to = { doc_id: r.doc_id, label: r.label };
      if (!edges.has(p.edge_id)) {
        edges.set(p.edge_id, {
          edge_id: p.edge_id, type: p.edge_type, src: p.from, dst: to, rule: p.rule,
          matched_text: p.matched_text, confidence: p.confidence, layer: p.layer, brought: [],
        });
      }
      edges.get(p.edge_id).brought.push({ to, from: p.from, depth: r.expansion_depth });
    }
    return [...edges.values()];
  }

  function layout(results, edges) {
    const nodes = new Map();
    const columns = [];
    const add = (ref, result) => {
      const k = keyOf(ref);
      if (nodes.has(k)) return;
      let col = columns.find((c) => c.doc_id === ref.doc_id);
      if (!col) columns.push((col = { doc_id: ref.doc_id, nodes: [] }));
      const node = { key: k, doc_id: ref.doc_id, label: ref.label, result };
      col.nodes.push(node);
      nodes.set(k, node);
    };
    for (const r of results) add(r, r);
    for (const e of edges) { add(e.src, null); add(e.dst, null); }
    let height = 0;
    columns.forEach((col, ci) => {
      col.nodes.sort((a, b) => labelOrder(a.label, b.label));
      col.x = PAD + ci * (BOX_W + COL_GAP);
      col.nodes.forEach((n, ri) => {
        n.x = col.x;
        n.y = PAD + HEAD + ri * (BOX_H + ROW_GAP);
        height = Math.max(height, n.y + BOX_H + PAD);
      });
    });
    const width = PAD * 2 + columns.length * BOX_W + Math.max(0, columns.length - 1) * COL_GAP;
    return { nodes, columns, width: width + 60, height: Math.max(height, 120) };
  }

  function pathOf(a, b, bend) {
    if (a.x === b.x) {  // same document: an arc out to the right of the column
      const x = a.x + BOX_W, y1 = a.y + BOX_H / 2, y2 = b.y + BOX_H / 2;
      const out = 26 + Math.abs(y2 - y1) * 0.18 + bend * 14;
      return `M${x},${y1} C${x + out},${y1} ${x + out},${y2} ${x + 4},${y2}`;
    }
    const rightward = a.x < b.x;
    const x1 = rightward ? a.x + BOX_W : a.x, x2 = rightward ? b.x - 4 : b.x + BOX_W + 4;
    const y1 = a.y + BOX_H / 2 + bend * 6, y2 = b.y + BOX_H / 2 + bend * 6;
    const dx = (x2 - x1) / 2;
    return `M${x1},${y1} C${x1 + dx},${y1 + bend * 10} ${x2 - dx},${y2 + bend * 10} ${x2},${y2}`;
  }

  function describe(e) {
    const parts = [`${e.type}: ${where(e.src)} → ${where(e.dst)}`];
    if (e.matched_text) parts.push(`evidence “${e.matched_text}”`);
    parts.push(`rule ${e.rule || "(none)"}`);
    for (const b of e.brought) parts.push(`brought ${where(b.to)} in at depth ${b.depth}`);
    return parts.join("; ");
  }

  /* Draw into `svg`; `opts.onOpen(result)` opens a result, `opts.onEdge(edge|null)` is told
     which edge is hovered or focused, `opts.hidden` is the set of edge types not to draw. */
  function draw(svg, results, resultGraph, opts) {
    const edges = edgesOf(results, resultGraph);
    const g = layout(results, edges);
    svg.replaceChildren();
    svg.setAttribute("viewBox", `0 0 ${g.width} ${g.height}`);
    svg.setAttribute("width", g.width);
    svg.setAttribute("height", g.height);
    const defs = el("defs", {}, svg);
    for (const [type, colour] of Object.entries(COLORS)) {
      const m = el("marker", {
        id: "arrow-" + type, viewBox: "0 0 10 10", refX: 9, refY: 5,
        markerWidth: 9, markerHeight: 9, markerUnits: "userSpaceOnUse", orient: "auto",
      }, defs);
      el("path", { d: "M0,0 L10,5 L0,10 z", fill: colour }, m);
    }
    for (const col of g.columns) {
      const t = el("text", { x: col.x, y: PAD + 12, class: "col-head" }, svg);
      t.textContent = col.doc_id;
    }
    const edgeLayer = el("g", { class: "edges" }, svg);
    const nodeLayer = el("g", { class: "nodes" }, svg);
    const seen = new Map();
    // soft edges underneath, the edges that brought sections in on top (hover reaches them)
    const weight = (e) => (e.type === "topically_related" ? 0 : 1) + (e.brought.length ? 1 : 0);
    for (const e of [...edges].sort((a, b) => weight(a) - weight(b))) {
      if (opts.hidden && opts.hidden.has(e.type)) continue;
      const a = g.nodes.get(keyOf(e.src)), b = g.nodes.get(keyOf(e.dst));
      if (!a || !b || a === b) continue;
      const pair = [a.key, b.key].sort().join("|");
      const bend = seen.get(pair) || 0;
      seen.set(pair, bend + 1);
      const colour = COLORS[e.type] || "#444";
      const group = el("g", {
        class: "edge" + (e.brought.length ? " brought" : "") + (e.type === "topically_related" ? " soft" : ""),
        tabindex: 0, role: "img", "aria-label": describe(e),
        "data-type": e.type, "data-rule": e.rule || "", "data-edge-id": e.edge_id,
        "data-src": where(e.src), "data-dst": where(e.dst),
      }, edgeLayer);
      el("title", {}, group).textContent = describe(e);
      const d = pathOf(a, b, bend);
      el("path", { d, class: "hit" }, group);
      el("path", { d, class: "line", stroke: colour, "marker-end": `url(#arrow-${e.type})` }, group);
      const show = () => opts.onEdge && opts.onEdge(e);
      const hide = () => opts.onEdge && opts.onEdge(null);
      group.addEventListener("mouseenter", show);
      group.addEventListener("focus", show);
      group.addEventListener("mouseleave", hide);
      group.addEventListener("blur", hide);
    }
    for (const n of g.nodes.values()) drawNode(nodeLayer, n, opts);
    return { edges, nodes: g.nodes };
  }

  function drawNode(layer, n, opts) {
    const r = n.result;
    const cls = "node" + (r ? (r.expansion_depth ? " expanded" : " hit") : " context")
      + (r && r.conflict ? " lost" : "");
    const name = where(n) + (r && r.heading ? " " + r.heading : "");
    const group = el("g", {
      class: cls, "data-key": n.key, "data-doc": n.doc_id, "data-label": n.label == null ? "" : n.label,
      transform: `translate(${n.x},${n.y})`,
    }, layer);
    if (r) {
      group.setAttribute("tabindex", 0);
      group.setAttribute("role", "button");
      group.setAttribute("aria-label", `#${r.rank} ${name}, score ${r.score}: open the passage`);
      const open = () => opts.onOpen && opts.onOpen(r);
      group.addEventListener("click", open);
      group.addEventListener("keydown", (ev) => {
        if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); open(); }
      });
    }
    el("title", {}, group).textContent = r ? `#${r.rank} ${name}\n${r.retrieval_reason}` : name;
    el("rect", { width: BOX_W, height: BOX_H, rx: 6 }, group);
    const line1 = el("text", { x: 8, y: 17, class: "n1" }, group);
    line1.textContent = (r ? `#${r.rank}  ` : "") + (n.label == null ? "whole document" : "§ " + n.label);
    const line2 = el("text", { x: 8, y: 34, class: "n2" }, group);
    const heading = r ? r.heading || "" : "";
    line2.textContent = heading.length > 22 ? heading.slice(0, 21) + "…" : heading;
  }

  window.RaagGraph = { draw, COLORS, edgesOf, labelOrder };
})();
