import { InvalidArgumentError } from '../errors/zookeeper-error-classes.js';
import { Perms, type Acl } from '../zk/zookeeper-types.js';

/**
 * An ACL entry for the client certificate whose subject is `subjectDn` (scheme `x509`): what a
 * session connected over TLS with that certificate is authenticated as by ZooKeeper's
 * X509AuthenticationProvider. The server compares the DN as a string, in the RFC 2253 form Java
 * prints, most specific first with no spaces after the commas: `CN=alice,OU=clients,O=example`
 * (`openssl x509 -noout -subject -nameopt RFC2253 -in alice.pem` prints it so).
 *
 * ```ts
 * await client.create('/app/secret', { acl: [x509Acl('CN=alice,OU=clients,O=example')] });
 * await client.create('/app/shared', {
 *   acl: [x509Acl('CN=alice,OU=clients,O=example'), x509Acl('CN=bob,OU=clients,O=example', Perms.READ)],
 * });
 * ```
 */
export function x509Acl(subjectDn: string, perms: number = Perms.ALL): Acl {
  if (typeof subjectDn !== 'string' || subjectDn.trim() === '') {
    throw new InvalidArgumentError(
      'x509Acl needs the certificate subject DN, e.g. CN=alice,O=example',
    );
  }
  if (/,\s/.test(subjectDn)) {
    throw new InvalidArgumentError(
      `x509Acl: '${subjectDn}' has a space after a comma; ZooKeeper compares the RFC 2253 form, e.g. CN=alice,O=example`,
    );
  }
  if (!Number.isInteger(perms) || perms < 1 || perms > Perms.ALL) {
    throw new InvalidArgumentError(
      `x509Acl: perms must be a Perms bit set from 1 to 31, got ${String(perms)}`,
    );
  }
  return { perms, id: { scheme: 'x509', id: subjectDn } };
}
