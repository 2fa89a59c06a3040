// Preloaded (node --import) into Portkey's gateway for the benchmark: its CLI listens on every
// interface and takes no host flag, so every listen() of that process is pinned to 127.0.0.1 here.
import net from 'node:net';

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function loopbackOnly(...args) {
  if (typeof args[0] === 'number' || typeof args[0] === 'string') {
    const cb = args.find((a) => typeof a === 'function');
    return listen.call(this, Number(args[0]), '127.0.0.1', cb);
  }
  if (typeof args[0] === 'object' && args[0] !== null && !('path' in args[0])) args[0] = { ...args[0], host: '127.0.0.1' };
  return listen.apply(this, args);
};
