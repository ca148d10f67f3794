import { describe, expect, it } from 'vitest';
import { credentialVariables, isCredentialValue } from '../../supervision/process-confinement.ts';

describe('credentialVariables, widened', () => {
  const env = {
    PGPASSWORD: 'pg-test-credential',
    MYSQL_PWD: 'mysql-test-credential',
    SSH_PRIVATE_KEY: '-----BEGIN OPENSSH PRIVATE KEY-----',
    GITHUB_PAT: 'github_pat_test',
    STRIPE_KEY: 'sk_live_test',
    LDAP_PASSWD: 'ldap-test-credential',
    DATABASE_URL: 'postgres://app:hunter2@db.internal:5432/app',
    REDIS_URL: 'redis://:hunter2@cache/0',
    PWD: '/work/project',
    OLDPWD: '/work',
    HOME_URL: 'https://example.com/home',
    PLAIN_URL: 'postgres://app@db.internal/app',
    KEYBOARD: 'us',
    PATH: '/usr/bin',
  };

  it('names *PASSWORD*, *_PWD, *PRIVATE_KEY*, *_PAT, *_KEY and URLs carrying a password', () => {
    expect(credentialVariables(env)).toEqual([
      'DATABASE_URL',
      'GITHUB_PAT',
      'LDAP_PASSWD',
      'MYSQL_PWD',
      'PGPASSWORD',
      'REDIS_URL',
      'SSH_PRIVATE_KEY',
      'STRIPE_KEY',
    ]);
  });

  it('passes a named one through on purpose (passEnvironment)', () => {
    expect(credentialVariables(env, ['DATABASE_URL', 'PGPASSWORD'])).not.toEqual(
      expect.arrayContaining(['DATABASE_URL']),
    );
    expect(credentialVariables(env, ['DATABASE_URL', 'PGPASSWORD'])).not.toContain('PGPASSWORD');
  });

  it.each([
    ['postgres://u:p@h/db', true],
    ['mysql://root:secret@127.0.0.1:3306/x', true],
    ['https://user:token@github.com/o/r.git', true],
    ['https://github.com/o/r.git', false],
    ['postgres://u@h/db', false],
    ['https://h/path?next=a:b@c', false],
    ['not a url: x:y@z', false],
  ])('%s carries a password: %s', (value, expected) => {
    expect(isCredentialValue(value)).toBe(expected);
  });
});
