/** bvs-mock's configuration: the file, and the organizations it declares. */
export { ConfigError, loadConfig } from './load-config';
export { OrganizationRegistry, type ClientGrant } from './organization-registry';
