export { FrameMeaning, LevelMeaning, readSpecFixture, SpecFixture, unixMs } from 'exchange-fixtures';
