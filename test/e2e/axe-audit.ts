// An axe-core audit of whatever a page shows right now: WCAG 2.1 A/AA plus axe's best practices
// (landmarks, one main), failing with one readable line per offending element.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** WCAG 2.1 A and AA, and the best practices that catch content left outside every landmark. */
export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"];

/** One offending element of one failed rule, as axe reports it. */
export interface AxeFinding {
  rule: string;
  impact: string;
  help: string;
  target: string;
  summary: string;
}

/**
 * Runs axe-core in the page and returns every violation, one entry per element. The source goes in
 * through the DevTools protocol, which the page's Content-Security-Policy (no inline script) does
 * not govern, so any page of the app can be audited as it is served.
 */
export async function auditPage(page: Page, except: string[] = []): Promise<AxeFinding[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(
    async ({ tags, except }) => {
      type AxeNode = { target: unknown[]; failureSummary?: string };
      type Result = { id: string; impact?: string | null; help: string; nodes: AxeNode[] };
      const axe = (
        window as unknown as {
          axe: { run(context: Document, options: object): Promise<{ violations: Result[] }> };
        }
      ).axe;
      const { violations } = await axe.run(document, {
        runOnly: { type: "tag", values: tags },
        resultTypes: ["violations"],
        rules: Object.fromEntries(except.map((rule) => [rule, { enabled: false }])),
      });
      return violations.flatMap((rule) =>
        rule.nodes.map((node) => ({
          rule: rule.id,
          impact: rule.impact ?? "unknown",
          help: rule.help,
          target: node.target.map(String).join(" >> "),
          summary: (node.failureSummary ?? "").replace(/\s+/g, " ").trim(),
        })),
      );
    },
    { tags: AXE_TAGS, except },
  );
}

/** One line per finding: rule, impact, where, and axe's own explanation. */
export function formatFindings(findings: AxeFinding[]): string {
  return findings.map((f) => `- ${f.rule} (${f.impact}) at ${f.target}: ${f.help}. ${f.summary}`).join("\n");
}

/**
 * Fails, naming every rule and element, unless axe finds nothing wrong with the page as it is.
 * `except` waives rules by id, for a known gap that is named where it is waived.
 */
export async function expectNoViolations(
  page: Page,
  label: string,
  options: { except?: string[] } = {},
): Promise<void> {
  const findings = await auditPage(page, options.except);
  if (findings.length > 0) {
    throw new Error(`${label}: ${findings.length} accessibility violation(s)\n${formatFindings(findings)}`);
  }
}
