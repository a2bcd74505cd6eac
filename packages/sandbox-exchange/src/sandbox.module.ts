import { Module } from '@nestjs/common';
import { SandboxAccountsModule } from './accounts/accounts.module';
import { ControlModule } from './control/control.module';
import { GatewayModule } from './gateway/gateway.module';
import { GatewayOrderCallsModule } from './gateway/order-calls.module';
import { AccountHubModule } from './hub/account-hub.module';
import { HubModule } from './hub/hub.module';
import { PrivateRestModule } from './private-rest/private-rest.module';
import { SandboxRestModule } from './rest/rest.module';
import { SandboxCoreModule } from './sandbox-core.module';
import { SandboxUsersModule } from './users/users.module';

/** The sandbox exchange: every interface of the exchange on one port, plus its control endpoints. */
@Module({
  imports: [
    SandboxCoreModule,
    SandboxUsersModule,
    SandboxRestModule,
    SandboxAccountsModule,
    PrivateRestModule,
    HubModule,
    AccountHubModule,
    GatewayModule,
    GatewayOrderCallsModule,
    ControlModule,
  ],
})
export class SandboxModule {}
