import type { AddressInfo } from 'node:net';
import { createGateway } from '../../../src/gateway/index.js';
import { createRouter } from '../../../src/index.js';
import { simulated } from './base.js';

/** A gateway on the simulator, listening on a free loopback port, with one key in SWITCHYARD_KEY. */
export async function setup() {
  const { sim, config } = await simulated();
  const saved = process.env.SWITCHYARD_KEY;
  process.env.SWITCHYARD_KEY = 'sk-switchyard-docs-snippet';
  const router = createRouter({ ...config, gateway: { keys: [{ keyEnv: 'SWITCHYARD_KEY', tenant: 'docs' }] } });
  const gateway = createGateway(router, { logger: false });
  await gateway.listen({ port: 0, host: '127.0.0.1' });
  const { port } = gateway.server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      await gateway.close();
      await router.close();
      await sim.stop();
      if (saved === undefined) delete process.env.SWITCHYARD_KEY;
      else process.env.SWITCHYARD_KEY = saved;
    },
  };
}
