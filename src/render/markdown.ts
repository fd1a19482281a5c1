import { plural } from '../util.js';
import type { PlanView } from './common.js';
import { markdownHead } from './markdown-head.js';
import { markdownSections } from './markdown-sections.js';

/** GitHub refuses comments over 65,536 characters; stay well under with room for the tail. */
export const MARKDOWN_LIMIT = 65_000;

/** What the Markdown may say beyond what any reader of the repository may see. */
export interface MarkdownOptions {
  /**
   * Name the panel's URL (plan and show --show-url); left out by default: a comment is public to
   * the repository's readers.
   */
  readonly showUrl?: boolean;
}

/**
 * The plan as a pull-request comment: a summary table, then the changes grouped by client in
 * collapsible sections. Unmanaged accounts are counts only, and the panel's URL is left out
 * unless asked for (a PR comment is widely visible). An international domain name is shown in
 * Unicode beside its ASCII form. Past MARKDOWN_LIMIT, whole client sections are left out and
 * the comment says how many.
 */
export function renderPlanMarkdown(view: PlanView, options: MarkdownOptions = {}): string {
  const head = markdownHead(view, options.showUrl === true);
  const { count, sections } = markdownSections(view.plan.changes);

  let text = `${head.join('\n')}\n`;
  let shown = 0;
  const reserve = 200;
  for (const section of sections()) {
    if (text.length + section.length + reserve > MARKDOWN_LIMIT) break;
    text += `${section}\n`;
    shown++;
  }
  if (shown < count) {
    const left = count - shown;
    text +=
      `_${plural(left, 'more client section')} left out to keep this comment under ` +
      `${MARKDOWN_LIMIT.toLocaleString('en-US')} characters: run \`provision plan\` for the whole plan._\n`;
  }
  return text;
}
