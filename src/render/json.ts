import { planDocumentPieces, planDocumentText } from '../plan/saved.js';
import type { PlanView } from './common.js';

/**
 * The plan JSON contract (docs/formats.md, schemas/plan.schema.json), also the `--out` plan file: one
 * document, written by its owner (plan/saved.ts). Never holds the API key or a password;
 * unmanaged names only when asked for, since they may be other customers'.
 */
export function renderPlanJson(view: PlanView): string {
  return planDocumentText(view);
}

/**
 * renderPlanJson in pieces of about 16 K characters (plan/json-pieces.ts RUN_LENGTH), each made
 * as it is taken: for a plan too big to hold as one text.
 */
export function planJsonPieces(view: PlanView): Iterable<string> {
  return planDocumentPieces(view);
}
