import { Module } from '@nestjs/common';
import { IngestService } from './ingest.service';

/** The ingest role: upstream connections, per-instrument pipelines, writes to the store. */
@Module({ providers: [IngestService], exports: [IngestService] })
export class IngestModule {}
