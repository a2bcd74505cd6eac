import uPlot from 'uplot';

/** Width a chart takes in its container; it follows window resizes. */
function widthOf(container: HTMLElement): number {
  return Math.max(240, container.clientWidth - 8);
}

/**
 * A uPlot chart that fills `container`'s width and keeps doing so; `update` gives it new data
 * (made at the first data, as uPlot needs its series then).
 */
export class ChartPanel {
  private chart?: uPlot;

  constructor(
    private readonly container: HTMLElement,
    private readonly options: (width: number) => uPlot.Options,
  ) {
    window.addEventListener('resize', () =>
      this.chart?.setSize({ width: widthOf(container), height: this.chart.height }),
    );
  }

  update(data: uPlot.AlignedData): void {
    if (!this.chart) this.chart = new uPlot(this.options(widthOf(this.container)), data, this.container);
    else this.chart.setData(data);
  }
}
