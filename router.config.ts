import { defaultConfig } from './src/config/default-config.js';

/**
 * The default config, used by `switchyard chat` and `switchyard eval` run here. Its logic lives in
 * `src/config/default-config.ts`, so an installed package has it too: run where there is no
 * `router.config.ts`, the CLI uses the same built-in default. Keys come from the environment; with
 * none set it answers offline (the simulator when `SWITCHYARD_SIMULATOR_URL` is set, else the
 * in-process `fake` provider). Importing this file reads the environment once and starts nothing.
 */
export default defaultConfig();
