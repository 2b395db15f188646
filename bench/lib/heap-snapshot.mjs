// Reads a V8 heap snapshot (the JSON `--snapshot` of gc-pauses.mjs writes, or Chrome's) and sums
// what it holds by node type and by module: for each script, its source text, the bytecode and
// function records compiled from it, and whether the isolate ran it (some live closure was made
// from one of its functions). The snapshot is flat arrays; see V8's heap-snapshot-generator for
// the layout its `meta` describes.

/**
 * @typedef {object} SnapshotJson
 * @property {{ meta: { node_fields: string[], node_types: [string[]], edge_fields: string[], edge_types: [string[]] } }} snapshot
 * @property {number[]} nodes
 * @property {number[]} edges
 * @property {string[]} strings
 *
 * @typedef {object} ModuleRow
 * @property {string} module      the script's name (its URL or module specifier)
 * @property {boolean} ran        a live closure was made from one of its functions
 * @property {number} closures
 * @property {number} functions   function records (SharedFunctionInfo) naming the script
 * @property {number} sourceChars the script's source text, in characters
 * @property {number} bytecode    bytes of bytecode, its constant pools and tables
 * @property {number} records     bytes of the function records and their scope and feedback data
 */

// A function record's edges to what belongs to it alone: its scope and feedback descriptions, and
// its code when that is not bytecode (uncompiled data, preparse data).
const RECORD_PARTS = new Set([
  "name_or_scope_info",
  "scope_info",
  "outer_scope_info_or_feedback_metadata",
  "feedback_metadata",
]);
const CODE_EDGES = new Set(["function_data", "trusted_function_data"]);
const BYTECODE_PARTS = /Bytecode|constant pool|TrustedByteArray/;

/** The snapshot as a graph with named accessors. @param {SnapshotJson} json */
export function snapshotGraph(json) {
  const meta = json.snapshot.meta;
  const nodeFields = meta.node_fields.length;
  const edgeFields = meta.edge_fields.length;
  const nodeTypes = meta.node_types[0];
  const edgeTypes = meta.edge_types[0];
  const at = {
    type: meta.node_fields.indexOf("type"),
    name: meta.node_fields.indexOf("name"),
    size: meta.node_fields.indexOf("self_size"),
    edges: meta.node_fields.indexOf("edge_count"),
    edgeType: meta.edge_fields.indexOf("type"),
    edgeName: meta.edge_fields.indexOf("name_or_index"),
    edgeTo: meta.edge_fields.indexOf("to_node"),
  };
  const { nodes, edges, strings } = json;
  const count = nodes.length / nodeFields;
  const firstEdge = new Uint32Array(count + 1);
  for (let i = 0, e = 0; i < count; i++) {
    firstEdge[i] = e;
    e += nodes[i * nodeFields + at.edges] * edgeFields;
  }
  firstEdge[count] = edges.length;
  return {
    count,
    /** @param {number} i */
    type: (i) => nodeTypes[nodes[i * nodeFields + at.type]],
    /** @param {number} i */
    name: (i) => strings[nodes[i * nodeFields + at.name]],
    /** @param {number} i */
    size: (i) => nodes[i * nodeFields + at.size],
    /**
     * The named edges of node `i` (element and hidden edges carry indexes, not names).
     * @param {number} i
     * @returns {Generator<[string, number]>}
     */
    *named(i) {
      for (let e = firstEdge[i]; e < firstEdge[i + 1]; e += edgeFields) {
        const kind = edgeTypes[edges[e + at.edgeType]];
        if (kind === "element" || kind === "hidden") continue;
        yield [strings[edges[e + at.edgeName]], edges[e + at.edgeTo] / nodeFields];
      }
    },
    /**
     * Every edge of node `i`, as the node it points to.
     * @param {number} i
     * @returns {Generator<number>}
     */
    *targets(i) {
      for (let e = firstEdge[i]; e < firstEdge[i + 1]; e += edgeFields)
        yield edges[e + at.edgeTo] / nodeFields;
    },
  };
}

/** Bytes and nodes by node type ("string", "code", "closure", …). @param {ReturnType<typeof snapshotGraph>} graph */
export function byNodeType(graph) {
  /** @type {Map<string, { bytes: number, nodes: number }>} */
  const types = new Map();
  for (let i = 0; i < graph.count; i++) {
    const row = types.get(graph.type(i)) ?? { bytes: 0, nodes: 0 };
    row.bytes += graph.size(i);
    row.nodes += 1;
    types.set(graph.type(i), row);
  }
  return [...types].map(([type, row]) => ({ type, ...row })).sort((a, b) => b.bytes - a.bytes);
}

/**
 * One row per script that has function records, largest compiled share first.
 * @param {ReturnType<typeof snapshotGraph>} graph
 * @returns {ModuleRow[]}
 */
export function byModule(graph) {
  /** @type {Map<number, ModuleRow>} script node → its row */
  const rows = new Map();
  /** @type {Map<number, number>} function record → its script node */
  const scriptOf = new Map();
  const rowOf = (/** @type {number} */ script) => {
    let row = rows.get(script);
    if (!row) {
      row = { module: "", ran: false, closures: 0, functions: 0, sourceChars: 0, bytecode: 0, records: 0 };
      for (const [edge, to] of graph.named(script)) {
        if (edge === "name") row.module = graph.name(to);
        if (edge === "source") row.sourceChars = graph.name(to).length;
      }
      rows.set(script, row);
    }
    return row;
  };
  // A function record is the code node that points at its script (V8 names it after the function,
  // or "system / SharedFunctionInfo / name" in newer versions, so it is found by that edge).
  for (let i = 0; i < graph.count; i++) {
    if (graph.type(i) !== "code") continue;
    let script = -1;
    let records = graph.size(i);
    let bytecode = 0;
    for (const [edge, to] of graph.named(i)) {
      if (edge === "script" || edge === "script_or_debug_info") script = to;
      else if (RECORD_PARTS.has(edge)) records += graph.size(to);
      else if (CODE_EDGES.has(edge)) {
        if (!graph.name(to).includes("Bytecode")) records += graph.size(to);
        else {
          bytecode += graph.size(to);
          for (const part of graph.targets(to))
            if (BYTECODE_PARTS.test(graph.name(part))) bytecode += graph.size(part);
        }
      }
    }
    if (script < 0) continue;
    scriptOf.set(i, script);
    const row = rowOf(script);
    row.functions += 1;
    row.records += records;
    row.bytecode += bytecode;
  }
  for (let i = 0; i < graph.count; i++) {
    if (graph.type(i) !== "closure") continue;
    for (const [edge, to] of graph.named(i)) {
      const script = edge === "shared" ? scriptOf.get(to) : undefined;
      if (script === undefined) continue;
      const row = rowOf(script);
      row.closures += 1;
      row.ran = true;
    }
  }
  return [...rows.values()].sort((a, b) => b.bytecode + b.records - (a.bytecode + a.records));
}
