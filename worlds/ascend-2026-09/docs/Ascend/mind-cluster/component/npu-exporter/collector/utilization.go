// Copyright (c) Huawei Technologies Co., Ltd. 2025. All rights reserved.

// Package implements utilizationCollector: NPU utilization by HDK capability.
package main

import "ascend-common/common-utils/hwlog"

// utilizationCollector NPU utilization by HDK capability.
type utilizationCollector struct {
	interval int
}

// Run starts utilizationCollector
func (c *utilizationCollector) Run() error {
	hwlog.RunLog.Infof("utilizationCollector started, interval %d", c.interval)
	return nil
}
