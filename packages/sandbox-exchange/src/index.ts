/**
 * The sandbox exchange's public entry: start it, read its settings, and reach the parts a test of a
 * client drives (the simulator, the hubs, the faults). Nothing else of the package is imported from outside.
 */
export { loadSandboxConfig, SandboxConfigError } from './config/load-sandbox-config';
export { SandboxConfig, TRADE_EVENT_NAMES, TradeEventName } from './config/sandbox-config';
export { SandboxTuning } from './config/sandbox-tuning';
export { describeSandbox, RunningSandbox, SandboxBanner, sandboxHost, startSandbox } from './start-sandbox';
export { Side } from './engine/side';
export { FAULT_NAMES, FAULTS, FaultName } from './faults/fault-catalog';
export { HubNegotiation } from './hub/hub-negotiation';
export { HubServer } from './hub/hub-server';
export { MarketDataHub } from './hub/market-data-hub';
export { MarketSimulator } from './simulation/market-simulator';
export { SandboxExchange } from './simulation/sandbox-exchange';
export { LoginSessions } from './users/login-sessions';
export { expectOk, PrivateRestClient } from './trader/private-rest-client';
