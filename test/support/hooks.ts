import { closeAll } from './server.js';

export const mochaHooks = {
  async afterAll(this: Mocha.Context) {
    this.timeout(30000);
    await closeAll();
  },
};
