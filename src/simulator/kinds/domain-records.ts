/**
 * The domain kind's record and its store list, `domains`; its settings are
 * domain-settings.ts's. kinds/domain.ts has its requests and seed.
 */
import { normalizeDomain } from '../../names.js';
import type { SimDomainExtras } from '../domain-settings.js';
import { type ListRule, whole } from '../table.js';

/**
 * A domain as GET /domains answers it: `domain` is ASCII (punycode), `domain_utf8` its Unicode
 * form; its settings (domain-settings.ts) in the panel's shapes.
 */
export interface SimDomain extends SimDomainExtras {
  readonly id: number;
  readonly id_user: number;
  /** 0 for a top-level domain. */
  readonly id_parent_domain: number;
  readonly domain: string;
  readonly domain_utf8: string;
  readonly is_subdomain: boolean;
  readonly is_system_domain: boolean;
  readonly is_disabled: boolean;
  readonly created_at: string;
}

export const DOMAIN_LISTS = {
  domains: {
    ...whole<SimDomain>(),
    fields: ['id', 'id_user', 'domain'],
    key: (d) => d.domain.toLowerCase(),
    // UTF-8 or punycode, case-insensitive, like /domains/name/.
    lookup: (name) => {
      const normal = normalizeDomain(name);
      return 'name' in normal ? normal.name : name.toLowerCase();
    },
    sequence: 'nextDomainId',
    deletable: true,
  },
} as const satisfies { domains: ListRule<SimDomain, SimDomain> };
