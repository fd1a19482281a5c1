/**
 * The FTP user's record reader and its home's forms: every plausible spelling of a record read to
 * the same FTP user, what cannot be read a contract error naming the field, and homes compared in
 * their normal form.
 */
import { describe, expect, it } from 'vitest';
import {
  FTP_USER_RECORD,
  homeDomain,
  homeForm,
  normalizeHome,
  parseFtpUserRecord,
  sameHome,
} from '../../../src/kinds/ftp-user/index.js';

const WHERE = 'GET http://panel/api/v2/ftp-users, item 1';

describe('an FTP user record', () => {
  it('reads the v1 spelling', () => {
    expect(
      parseFtpUserRecord(
        { id: 4, id_user: 3, username: 'alice_deploy', description: 'deploys', home_directory: '/www/alice.example/' },
        WHERE,
      ),
    ).toEqual({ id: 4, idUser: 3, name: 'alice_deploy', description: 'deploys', home: '/www/alice.example' });
  });

  it('reads other spellings, numbers as strings, null as none or unknown', () => {
    expect(
      parseFtpUserRecord(
        { id: '4', user_id: '3', name: 'Alice_Deploy', description: null, home: 'www//a.example' },
        WHERE,
      ),
    ).toEqual({ id: 4, idUser: 3, name: 'alice_deploy', description: '', home: '/www/a.example' });
    expect(parseFtpUserRecord({ id: 4, username: 'x', home_directory: null, id_user: null }, WHERE)).toEqual({
      id: 4,
      idUser: undefined,
      name: 'x',
      description: undefined,
      home: undefined,
    });
  });

  it('says which field it cannot read', () => {
    expect(() => parseFtpUserRecord({ username: 'x' }, WHERE)).toThrow(
      `${WHERE}: "id" must be a positive whole number`,
    );
    expect(() => parseFtpUserRecord({ id: 1 }, WHERE)).toThrow(`"username" must be a non-empty string, got nothing`);
    expect(() => parseFtpUserRecord({ id: 1, username: 'x', home_directory: 3 }, WHERE)).toThrow(
      '"home_directory" must be a path like /www/alice.example, got',
    );
    expect(() => parseFtpUserRecord({ id: 1, username: 'x', name: 'y' }, WHERE)).toThrow(
      '"username" and "name" disagree',
    );
    expect(() => parseFtpUserRecord([], WHERE)).toThrow('expected an object, got an array');
  });

  it('is read by id at /ftp-users/{id}', () => {
    expect(FTP_USER_RECORD.path(9)).toBe('/ftp-users/9');
  });
});

describe("an FTP user's home", () => {
  it('compares /www/ and /www alike', () => {
    expect(homeForm('/www/')).toBe('/www');
    expect(homeForm('www/./a.example//')).toBe('/www/a.example');
    expect(sameHome('/www/', '/www')).toBe(true);
    expect(sameHome('/www', '/files')).toBe(false);
  });

  it('takes a folder under /www or /files, and says what to write otherwise', () => {
    expect(normalizeHome('/files/backup/')).toEqual({ home: '/files/backup' });
    expect(normalizeHome('www')).toEqual({ home: '/www' });
    const problem = (input: string): string => {
      const read = normalizeHome(input);
      return 'problem' in read ? read.problem : 'accepted';
    };
    expect(problem('/www/../etc')).toMatch(/^climbs out with "\.\.".*write a folder under \/www or \/files/);
    expect(problem('/etc/passwd')).toMatch(/^is not under \/www or \/files of the client's home/);
    expect(problem('/home/alice/www')).toMatch(/^is not under \/www or \/files/);
    expect(problem('\\www\\a')).toMatch(/^holds a backslash: folders are separated by "\/"/);
    expect(problem('/')).toMatch(/^is the client's whole home/);
    expect(problem('')).toMatch(/^is empty/);
    expect(problem('/www/a\nb')).toMatch(/^holds a control character/);
  });

  it('names the domain of /www/<domain>', () => {
    expect(homeDomain('/www/Alice.Example/public')).toBe('alice.example');
    expect(homeDomain('/www/bücher.example')).toBe('xn--bcher-kva.example');
    expect(homeDomain('/www')).toBeUndefined();
    expect(homeDomain('/www/logs')).toBeUndefined();
    expect(homeDomain('/files/alice.example')).toBeUndefined();
  });
});
