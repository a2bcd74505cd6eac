import { Module } from '@nestjs/common';
import { SandboxCoreModule } from '../sandbox-core.module';

/** Sandbox users, their logins and sessions. */
@Module({ imports: [SandboxCoreModule] })
export class SandboxUsersModule {}
