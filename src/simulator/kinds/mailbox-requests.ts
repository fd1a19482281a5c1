/**
 * The rules of POST and PUT /emails (kinds/mailbox.ts serves them; the record is
 * kinds/mailbox-records.ts's). The panel's rules are not documented; the simulator chooses
 * (docs/panel-api.md, "The simulator"):
 * - Fields: `id_user` (integer), `email` (an address), `password` (a string of at least 8
 *   characters), `description` (string), `max_size` (bytes, an integer of 0 or more, 0
 *   unlimited), `catch_all` and `store_forwarded_emails` (booleans), `aliases` and
 *   `forwardings` (arrays of full addresses). Other fields are ignored (`password_hash` too: the
 *   panel takes it only when an administrator turned it on).
 * - POST: `id_user`, `email` and `password` are required; the rest default to "", 0, false and
 *   []. Checks in order, each a 400 unless said: body shape -> every address readable (no list
 *   with one twice) -> password length -> `id_user` a client (404, like POST /domains) -> the
 *   address's domain a domain of that client -> the address free (no mailbox's address or
 *   alias) -> each alias not the address itself, on a domain of the same client, free -> no
 *   forwarding to the mailbox itself (its address or an alias) -> a catch-all only where its
 *   domain has none. 201 `{"id"}`.
 * - PUT /emails/{id}: partial, the fields given only (`aliases` and `forwardings` replace the
 *   lists whole; `password` optional). Unknown id 404 -> body shape -> `email` or `id_user`
 *   other than the mailbox's (400: an identity) -> the checks above, the mailbox's own
 *   addresses and catch-all free for it. 200 `{"id"}`.
 * - Addresses are stored in their ASCII form, lowercase (mailbox-records.ts readAddress), with
 *   `_utf8` twins; uniqueness is over that form.
 */
import type { SimStore } from '../store.js';
import type { SimClient } from './client-records.js';
import { passwordProblem } from './client.js';
import { type Address, catchAllKey, hashPassword, readAddress, type SimMailbox } from './mailbox-records.js';

/** A request the rules refuse, with the status the panel's other routes use for the same class. */
export interface Refusal {
  readonly status: 400 | 404;
  readonly message: string;
}

/** A body's fields, their shapes checked; absent ones were not given. */
export interface MailboxFields {
  readonly idUser?: number;
  readonly email?: Address;
  readonly password?: string;
  readonly description?: string;
  readonly maxSize?: number;
  /** The seed's only: the mail already stored. */
  readonly size?: number;
  readonly catchAll?: boolean;
  readonly keepCopies?: boolean;
  readonly aliases?: readonly Address[];
  readonly forwardings?: readonly Address[];
}

const bad = (message: string): Refusal => ({ status: 400, message });

const isSize = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

/** A list of addresses, each read, none twice; or the refusal. */
function addressList(value: unknown, field: string): readonly Address[] | Refusal {
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string'))
    return bad(`The field '${field}' must be an array of addresses.`);
  const read: Address[] = [];
  for (const item of value) {
    const address = readAddress(item);
    if ('problem' in address) return bad(`The address '${item}' in '${field}' ${address.problem}.`);
    if (read.some((other) => other.address === address.address))
      return bad(`The address '${item}' is listed twice in '${field}'.`);
    read.push(address);
  }
  return read;
}

/**
 * The fields of a POST or PUT body (or a seed item made into one), shapes and addresses
 * checked. `required`: POST's; `size`: the seed's.
 */
export function fieldsOf(
  body: Readonly<Record<string, unknown>>,
  required: boolean,
  size = false,
): MailboxFields | Refusal {
  const { id_user: idUser, email, password, description, max_size: maxSize, catch_all: catchAll } = body;
  const keepCopies = body.store_forwarded_emails;
  if (required || idUser !== undefined)
    if (!Number.isSafeInteger(idUser)) return bad("The field 'id_user' is required and must be an integer.");
  if (required || email !== undefined)
    if (typeof email !== 'string' || email === '') return bad("The field 'email' is required and must be a string.");
  if (required && password === undefined) return bad("The field 'password' is required: the panel makes none.");
  if (description !== undefined && typeof description !== 'string')
    return bad("The field 'description' must be a string.");
  if (maxSize !== undefined && !isSize(maxSize))
    return bad("The field 'max_size' must be a whole number of bytes, 0 or more (0: unlimited).");
  if (size && body.size !== undefined && !isSize(body.size))
    return bad("The field 'size' must be a whole number of bytes, 0 or more.");
  if (catchAll !== undefined && typeof catchAll !== 'boolean') return bad("The field 'catch_all' must be a boolean.");
  if (keepCopies !== undefined && typeof keepCopies !== 'boolean')
    return bad("The field 'store_forwarded_emails' must be a boolean.");
  let address: Address | undefined;
  if (typeof email === 'string') {
    const read = readAddress(email);
    if ('problem' in read) return bad(`The address '${email}' ${read.problem}.`);
    address = read;
  }
  const aliases = body.aliases === undefined ? undefined : addressList(body.aliases, 'aliases');
  if (aliases !== undefined && 'status' in aliases) return aliases;
  const forwardings = body.forwardings === undefined ? undefined : addressList(body.forwardings, 'forwardings');
  if (forwardings !== undefined && 'status' in forwardings) return forwardings;
  const badPassword = password === undefined ? undefined : passwordProblem(password);
  if (badPassword !== undefined) return bad(badPassword);
  return {
    ...(idUser === undefined ? {} : { idUser: idUser as number }),
    ...(address === undefined ? {} : { email: address }),
    ...(typeof password === 'string' ? { password } : {}),
    ...(description === undefined ? {} : { description }),
    ...(maxSize === undefined ? {} : { maxSize }),
    ...(size && body.size !== undefined ? { size: body.size as number } : {}),
    ...(catchAll === undefined ? {} : { catchAll }),
    ...(keepCopies === undefined ? {} : { keepCopies }),
    ...(aliases === undefined ? {} : { aliases }),
    ...(forwardings === undefined ? {} : { forwardings }),
  };
}

/** Why `client` may not have a mailbox (or an alias) on this domain, or undefined when it may. */
function domainProblem(store: SimStore, client: SimClient, address: Address): Refusal | undefined {
  const domain = store.keyed('domains', address.domain);
  if (domain?.id_user === client.id) return undefined;
  return bad(`The domain '${address.domain}' of '${address.utf8}' is not a domain of the client '${client.username}'.`);
}

/** The holder of an address (a mailbox's, or an alias), if it is not `self`. */
function takenBy(store: SimStore, key: string, self: number | undefined): SimMailbox | undefined {
  const holder = store.keyed('mailboxes', key);
  return holder === undefined || holder.id === self ? undefined : holder;
}

/** The record a POST (`before` undefined) or PUT makes of checked fields, or why the panel refuses it. */
function placed(store: SimStore, fields: MailboxFields, before: SimMailbox | undefined): SimMailbox | Refusal {
  const idUser = before?.id_user ?? fields.idUser ?? 0;
  const client = store.clients.get(idUser);
  if (client === undefined) return { status: 404, message: `The client with id_user ${idUser} was not found.` };
  const email = fields.email ?? readAddress(before?.email ?? '');
  if ('problem' in email) return bad('The mailbox has no address.');
  const self = before?.id;
  if (before === undefined) {
    const problem = domainProblem(store, client, email);
    if (problem !== undefined) return problem;
    const holder = takenBy(store, email.address, self);
    if (holder !== undefined) return bad(`The address '${email.utf8}' is already in use.`);
  }
  const aliases = fields.aliases ?? before?.aliases.map((alias) => readAddress(alias) as Address) ?? [];
  for (const alias of fields.aliases ?? []) {
    if (alias.address === email.address) return bad(`The alias '${alias.utf8}' is the mailbox's own address.`);
    const problem = domainProblem(store, client, alias);
    if (problem !== undefined) return problem;
    if (takenBy(store, alias.address, self) !== undefined) return bad(`The address '${alias.utf8}' is already in use.`);
  }
  const forwardings = fields.forwardings ?? before?.forwardings.map((to) => readAddress(to) as Address) ?? [];
  const own = new Set([email.address, ...aliases.map((alias) => alias.address)]);
  for (const to of forwardings)
    if (own.has(to.address)) return bad(`The mailbox '${email.utf8}' cannot forward to itself ('${to.utf8}').`);
  const catchAll = fields.catchAll ?? before?.catch_all ?? false;
  const other = catchAll ? takenBy(store, catchAllKey(email.domain), self) : undefined;
  if (other !== undefined)
    return bad(`The domain '${email.domain}' already has a catch-all mailbox: '${other.email_utf8}'.`);
  return {
    id: before?.id ?? store.nextId('mailboxes'),
    id_user: idUser,
    email: email.address,
    email_utf8: email.utf8,
    description: fields.description ?? before?.description ?? '',
    size: fields.size ?? before?.size ?? 0,
    max_size: fields.maxSize ?? before?.max_size ?? 0,
    aliases: aliases.map((alias) => alias.address),
    aliases_utf8: aliases.map((alias) => alias.utf8),
    forwardings: forwardings.map((to) => to.address),
    forwardings_utf8: forwardings.map((to) => to.utf8),
    catch_all: catchAll,
    store_forwarded_emails: fields.keepCopies ?? before?.store_forwarded_emails ?? false,
  };
}

/** Stores a new mailbox (with the hash of its password, when it has one), or refuses it. */
export function addMailbox(store: SimStore, fields: MailboxFields): SimMailbox | Refusal {
  const record = placed(store, fields, undefined);
  if ('status' in record) return record;
  store.set('mailboxes', record);
  if (fields.password !== undefined)
    store.set('mailboxPasswords', { id: record.id, hash: hashPassword(fields.password) });
  return record;
}

/** PUT /emails/{id}: the fields given replace the stored ones; identity fields must stay. */
export function changeMailbox(store: SimStore, before: SimMailbox, fields: MailboxFields): SimMailbox | Refusal {
  if (fields.email !== undefined && fields.email.address !== before.email)
    return bad('The address of a mailbox cannot be changed.');
  if (fields.idUser !== undefined && fields.idUser !== before.id_user)
    return bad('A mailbox cannot be moved to another client.');
  const record = placed(store, fields, before);
  if ('status' in record) return record;
  store.set('mailboxes', record);
  if (fields.password !== undefined)
    store.set('mailboxPasswords', { id: record.id, hash: hashPassword(fields.password) });
  return record;
}
