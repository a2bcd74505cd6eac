import { Module } from '@nestjs/common';
import { SandboxCoreModule } from '../sandbox-core.module';
import { SandboxUsersModule } from '../users/users.module';
import { GatewayFunctions } from './gateway-functions';
import { GatewayServer } from './gateway-server';

/**
 * The websocket gateway at /WSGateway/. Other modules add functions (e.g. the private trading calls)
 * through GatewayFunctions.
 */
@Module({
  imports: [SandboxCoreModule, SandboxUsersModule],
  providers: [GatewayFunctions, GatewayServer],
  exports: [GatewayFunctions, GatewayServer],
})
export class GatewayModule {}
