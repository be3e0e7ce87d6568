// Copyright (c) Huawei Technologies Co., Ltd. 2025. All rights reserved.

// Package implements ShareDevice: share device mode: one chip exposed as shareDevCount devices.
package main

import "ascend-common/common-utils/hwlog"

// ShareDevice share device mode: one chip exposed as shareDevCount devices.
type ShareDevice struct {
	interval int
}

// Run starts ShareDevice
func (c *ShareDevice) Run() error {
	hwlog.RunLog.Infof("ShareDevice started, interval %d", c.interval)
	return nil
}
