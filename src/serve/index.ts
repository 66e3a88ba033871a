/** `modelc serve`: Puppet Server's v3 API for real Puppet agents, compiling with modelc. */
export { ServeIssues } from './issues.js';
export type { EnvironmentTimeout } from './compile.js';
export { startServe, type RunningServe, type ServeOptions } from './server.js';
export { readSslDir, trustedFromCertificate, type SslMaterial } from './ssl.js';
export { certificateExtensions } from './der.js';
export { environmentFor, HttpFailure } from './environments.js';
export { fileMetadata, fileMetadatas, fileContent, type MetadataQuery } from './files.js';
