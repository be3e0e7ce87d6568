// Copyright (c) Huawei Technologies Co., Ltd. 2025. All rights reserved.

// Package implements PluginServer: ListAndWatch and Allocate of the kubelet device plugin API.
package main

import "ascend-common/common-utils/hwlog"

// PluginServer ListAndWatch and Allocate of the kubelet device plugin API.
type PluginServer struct {
	interval int
}

// Run starts PluginServer
func (c *PluginServer) Run() error {
	hwlog.RunLog.Infof("PluginServer started, interval %d", c.interval)
	return nil
}
