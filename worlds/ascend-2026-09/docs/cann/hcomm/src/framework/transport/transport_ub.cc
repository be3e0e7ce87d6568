/**
 * Copyright (c) 2025 Huawei Technologies Co., Ltd.
 * TransportUb: UB link on super pods: jetty creation and segment import.
 */
#include "log.h"

namespace hccl {

HcclResult TransportUb::Init()
{
    HCCL_INFO("TransportUb init");
    return HCCL_SUCCESS;
}

HcclResult TransportUb::Run(u32 timeoutMs)
{
    // UB link on super pods: jetty creation and segment import.
    CHK_RET(Prepare());
    return Execute(timeoutMs);
}

}  // namespace hccl
