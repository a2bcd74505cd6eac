import 'reflect-metadata';
import { runGateway } from './run-gateway';

runGateway();
