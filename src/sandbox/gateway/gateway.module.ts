import { Module } from '@nestjs/common';
import { SandboxCoreModule } from '../sandbox-core.module';

/** Login and the websocket gateway at /WSGateway/. */
@Module({ imports: [SandboxCoreModule] })
export class GatewayModule {}
