/**
 * Domain settings for the planner's property tests (fast-check): what a manifest may give, what a
 * panel's record may hold (in its odd shapes), and what a create leaves on the panel.
 */
import fc from 'fast-check';
import { type CreateDomain, domainRequest, type DomainSettings, readSettings } from '../../src/kinds/domain.js';
import type { LiveDomain } from '../../src/panel/types.js';
import { domainExtras } from '../../src/simulator/domain-settings.js';

/** A domain's settings as a manifest gives them: any subset, each in the manifest's terms. */
export const settings: fc.Arbitrary<DomainSettings | undefined> = fc.option(
  fc.record(
    {
      php_version: fc.constantFrom('8.3', '8.1', '8.0', 'default'),
      'https.lets_encrypt': fc.boolean(),
      'https.force': fc.boolean(),
      'https.hsts': fc.constantFrom(false as const, { max_age: 31536000, include_subdomains: true, preload: false }),
      redirect: fc.constantFrom(
        false as const,
        { to: 'https://a.example/', status: 301 },
        { to: 'https://b.example/', status: 302 },
      ),
    },
    { requiredKeys: [] },
  ),
  { nil: undefined },
);

/** A flag in the spellings panels answer with. */
const flag = (on: boolean) => fc.constantFrom(on, on ? 1 : 0, on ? '1' : '0', on ? 'true' : 'false');

/** The settings part of a domain record in the panel's shapes: odd spellings, objects missing or not objects, values unreadable. */
export const settingsRecord: fc.Arbitrary<Record<string, unknown>> = fc.record(
  {
    php_version: fc.constantFrom(undefined, null, '', '8.1', '8.3', ' 8.3', 8.3, 8, true),
    security: fc.oneof(
      fc.constantFrom(undefined, null, [], 'on'),
      fc
        .record(
          {
            id_certificate: fc.constantFrom(0, 4),
            lets_encrypt: fc.boolean().chain(flag),
            prefer: fc.tuple(fc.constantFrom('is_prefer_https', 'force_https'), fc.boolean().chain(flag)),
            is_hsts: fc.oneof(fc.boolean().chain(flag), fc.constant('yes')),
            hsts_max_age: fc.constantFrom(undefined, 0, 600, '31536000'),
            hsts_include: fc.constantFrom(undefined, true, 0),
            hsts_preload: fc.constantFrom(undefined, false, '1'),
          },
          { requiredKeys: ['id_certificate', 'lets_encrypt', 'prefer', 'is_hsts'] },
        )
        .map(({ prefer: [key, value], ...rest }) => ({ ...rest, [key]: value })),
    ),
    target: fc.oneof(
      fc.constantFrom(undefined, null, 'x'),
      fc.record(
        {
          target: fc.constantFrom('/home/users/x/www/', 'https://a.example/', 5),
          is_forwarding: fc.boolean().chain(flag),
          forwarding_type: fc.constantFrom(undefined, 301, 302, '301'),
        },
        { requiredKeys: ['target', 'is_forwarding'] },
      ),
    ),
  },
  { requiredKeys: [] },
);

/** The settings a created domain shows, as the simulator makes them: the POST's, each nested object merged over the defaults. */
export function createdSettings(change: CreateDomain): LiveDomain['settings'] {
  const body = domainRequest(change).body as { php_version?: string; security?: object; target?: object };
  const extras = domainExtras(change.client, change.name);
  return readSettings({
    php_version: body.php_version ?? extras.php_version,
    security: { ...extras.security, ...body.security },
    target: { ...extras.target, ...body.target },
  });
}
