"""I/O helpers every floor uses: whole-file writes, kill points, interrupts, the breaker, the case export, the model client, logs, inputs checked, progress bars and the end-of-run summary."""
