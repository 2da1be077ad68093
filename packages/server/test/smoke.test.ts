import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb, signUp, startServer, TestSocket, type TestServer } from './harness';

describeEachDb('server smoke', (target) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(target);
  });
  afterAll(async () => {
    await server.close();
  });

  it('registers, logs in and binds a socket', async () => {
    const alice = await signUp(server, 'alice');
    const me = await server.call('checkuser', {}, { token: alice.token });
    expect(me.code).toBe(0);
    expect(me.data.account).toBe('alice');
    const sock = await TestSocket.bound(server, alice.userId, alice.token);
    expect(sock.frames.find((f) => f.type === 'pong')).toEqual({ type: 'pong', multiport: false });
    sock.close();
  });
});
