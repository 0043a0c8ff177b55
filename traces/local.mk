# traces/
