// Preloaded (--import) into every Windows Node of the smoke, never into the product: under Wine 8.0
// a socket whose keep-alive is switched on before it connects fails to connect (UNKNOWN), and
// Node's fetch and npm's agent do that. Here the call waits for "connect". Wine only.
import net from "node:net"

const setKeepAlive = net.Socket.prototype.setKeepAlive
net.Socket.prototype.setKeepAlive = function deferredSetKeepAlive(enable, delay) {
  const notConnectedYet = this.connecting || (this._handle == null && !this.destroyed)
  if (!notConnectedYet) return setKeepAlive.call(this, enable, delay)
  this.once("connect", () => {
    try {
      setKeepAlive.call(this, enable, delay)
    } catch {}
  })
  return this
}
