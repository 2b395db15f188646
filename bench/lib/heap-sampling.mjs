// Sums a V8 sampling heap profile (taken with collected objects included, so it counts garbage):
// bytes in all, by part of the code and by allocation site, printed as Markdown tables.

/** `HeapProfiler.startSampling` parameters: fine samples, and objects already collected kept in. */
export const SAMPLING = {
  samplingInterval: 256,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: true,
};

/**
 * @param {{ head: any }} profile `HeapProfiler.stopSampling`'s profile
 * @param {(stack: Array<{ url: string, functionName: string, lineNumber: number }>) => string} ownerOf the part a sample's stack (outermost first) belongs to
 * @param {(frame: { url: string, functionName: string, lineNumber: number }) => string} siteOf the name of an allocation site
 */
export function summarize(profile, ownerOf, siteOf) {
  const bySite = new Map();
  const byOwner = new Map();
  let total = 0;
  const walk = (node, stack) => {
    const here = [...stack, node.callFrame];
    if (node.selfSize > 0) {
      total += node.selfSize;
      const owner = ownerOf(here);
      byOwner.set(owner, (byOwner.get(owner) ?? 0) + node.selfSize);
      const site = siteOf(node.callFrame);
      bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
    }
    for (const child of node.children) walk(child, here);
  };
  walk(profile.head, []);
  return { total, byOwner, bySite };
}

/** Markdown tables of a summary, in MiB per 1 000 deltas. */
export function tables({ total, byOwner, bySite }, deltas, top) {
  const mib = (bytes) => `${(((bytes / deltas) * 1000) / 1024 / 1024).toFixed(2)} MiB`;
  const lines = [];
  if (byOwner.size > 1) {
    lines.push("| part | per 1 000 deltas | share |", "|---|---:|---:|");
    for (const [owner, bytes] of [...byOwner].sort((a, b) => b[1] - a[1])) {
      lines.push(`| ${owner} | ${mib(bytes)} | ${Math.round((bytes / total) * 100)} % |`);
    }
    lines.push("");
  }
  lines.push("| allocation site (self) | per 1 000 deltas |", "|---|---:|");
  for (const [site, bytes] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    lines.push(`| \`${site}\` | ${mib(bytes)} |`);
  }
  return lines.join("\n");
}

/** Bytes as MiB per 1 000 deltas. */
export function perThousand(bytes, deltas) {
  return `${(((bytes / deltas) * 1000) / 1024 / 1024).toFixed(2)} MiB`;
}
