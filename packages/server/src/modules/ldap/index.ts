/** What other modules may use of ldap; everything else in this folder is its own. */
export { LDAP_PROVIDER, LdapService, type SignInClient } from './service';
export { ldapRoutes } from './routes';
