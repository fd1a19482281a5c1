/**
 * A domain as the panel holds it: the field part of its record (its ASCII name, the system
 * flag), and its forms for people and for a manifest (the Unicode form, the written form and
 * order export uses). Pure.
 */
import { domainToUnicode } from 'node:url';
import { safeText } from '../../escape.js';
import { normalizeDomain } from '../../names.js';
import { compare } from '../../util.js';
import { FLAG_PROBLEM, readFlag } from '../common.js';
import type { LiveDomainSettings } from './settings.js';

export interface LiveDomain {
  readonly id: number;
  /** Lowercase ASCII (punycode for IDNs). */
  readonly name: string;
  readonly idUser: number;
  /**
   * Created by the panel itself: never deleted, never counted as unmanaged. undefined when the
   * record does not say (no `is_system_domain`, or null): then prune never deletes it (it may be
   * the panel's own), and it is counted like any other domain (unmanaged, going with its
   * client); `state: absent` in the manifest, which names it, still deletes it.
   */
  readonly isSystem: boolean | undefined;
  /**
   * A subdomain on the panel (`id_parent_domain` not 0, or `is_subdomain`): its DNS records live
   * in its parent's zone. Absent when the record does not say.
   */
  readonly isSubdomain?: boolean;
  /** Its settings as read (settings.ts); undefined when the record carries none of them. */
  readonly settings?: LiveDomainSettings | undefined;
}

/**
 * `is_system_domain` as read (common.ts readFlag: a boolean, 0 or 1, or those as strings) gives
 * true or false; a record without the field, with null or with "" (spaces aside) does not say
 * (undefined). Anything else is a problem.
 */
export function systemFlag(value: unknown): boolean | undefined | { readonly problem: string } {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string' && value.trim() === '') return undefined;
  return readFlag(value) ?? { problem: FLAG_PROBLEM };
}

/**
 * A domain's name as read (`domain`): normalised to lowercase ASCII, or kept lowercased when
 * normalizeDomain refuses it (the panel has it, it must still be seen).
 */
export function domainName(raw: string): string {
  const normal = normalizeDomain(raw);
  return 'name' in normal ? normal.name : raw.toLowerCase();
}

/**
 * ` (bücher.example)` beside an international name's ASCII form, so people can read it; else ''.
 * The Unicode form is data like the name (safeText: a decoded label holding a control or
 * bidirectional character shows it escaped).
 */
export function unicodeForm(ascii: string): string {
  if (!ascii.includes('xn--')) return '';
  const unicode = domainToUnicode(ascii);
  return unicode === '' || unicode === ascii ? '' : ` (${safeText(unicode)})`;
}

/** A live domain the manifest can list: `name` its ASCII comparison form, `text` its written form. */
export interface DomainForm {
  readonly name: string;
  readonly text: string;
}

/**
 * A domain's written form (its export entry): its Unicode form (node:url domainToUnicode) when
 * that normalises back to the same ASCII name, else the ASCII name; undefined when
 * normalizeDomain refuses the name (the manifest would refuse it too).
 */
export function domainForm(name: string): DomainForm | undefined {
  const normal = normalizeDomain(name);
  if (!('name' in normal)) return undefined;
  const unicode = domainToUnicode(normal.name);
  const back = unicode === '' ? undefined : normalizeDomain(unicode);
  return {
    name: normal.name,
    text: back !== undefined && 'name' in back && back.name === normal.name ? unicode : normal.name,
  };
}

/**
 * The order domains are written in: by their labels read from the right (ASCII form), so
 * a parent always comes before its subdomains and a domain's family stays together
 * (`alice.example`, `shop.alice.example`, `bob.example`). Code-unit comparison: the same
 * everywhere, whatever the locale.
 */
export function domainOrder(a: string, b: string): number {
  const la = a.split('.').reverse();
  const lb = b.split('.').reverse();
  for (let i = 0; i < Math.min(la.length, lb.length); i++) {
    const c = compare(la[i] ?? '', lb[i] ?? '');
    if (c !== 0) return c;
  }
  return la.length - lb.length;
}

/**
 * Whether a domain record is a subdomain's: `id_parent_domain` a positive integer, or
 * `is_subdomain` true (readFlag: 1, "1", "true"); undefined when it says neither way.
 */
export function subdomainFlag(record: Readonly<Record<string, unknown>>): boolean | undefined {
  const parent = record.id_parent_domain;
  if (Number.isSafeInteger(parent)) return (parent as number) > 0;
  return readFlag(record.is_subdomain);
}
