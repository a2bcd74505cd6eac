import { Module } from '@nestjs/common';
import { SandboxAccountsModule } from '../accounts/accounts.module';
import { SandboxCoreModule } from '../sandbox-core.module';
import { SandboxUsersModule } from '../users/users.module';
import { OrdersController } from './orders.controller';
import { PrivateAuthGuard } from './private-auth.guard';
import { StopOrdersController } from './stop-orders.controller';

/** The exchange's private REST (spec 4.2): signed calls on the users' accounts. */
@Module({
  imports: [SandboxCoreModule, SandboxUsersModule, SandboxAccountsModule],
  controllers: [OrdersController, StopOrdersController],
  providers: [PrivateAuthGuard],
})
export class PrivateRestModule {}
