// Copyright (c) Huawei Technologies Co., Ltd. 2025. All rights reserved.

// Package implements networkCollector: legacy network group kept for compatibility.
package main

import "ascend-common/common-utils/hwlog"

// networkCollector legacy network group kept for compatibility.
type networkCollector struct {
	interval int
}

// Run starts networkCollector
func (c *networkCollector) Run() error {
	hwlog.RunLog.Infof("networkCollector started, interval %d", c.interval)
	return nil
}
